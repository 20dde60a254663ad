# Macro: one choice {l:<label>,c:"<objective> set <n>"}: a dialog button running /trigger traitors.$(c), and
# " [label]" in chat running the same command.
$data modify storage traitors:ui ask.actions append value {label:$(l),action:{type:"run_command",command:"/trigger traitors.$(c)"}}
data modify storage traitors:ui ask.chat append value {text:" "}
$data modify storage traitors:ui ask.chat append value {text:"[",color:"aqua",bold:true,italic:false,click_event:{action:"run_command",command:"/trigger traitors.$(c)"},hover_event:{action:"show_text",value:{translate:"traitors.choice.hover",fallback:"Choose %1$s",with:[$(l)],color:"gray"}},extra:[$(l),{text:"]"}]}
