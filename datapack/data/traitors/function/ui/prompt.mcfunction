# Macro, called by the bridge: function traitors:ui/prompt {player:…,title:…,body:…,actions:[…]} when the dialog fits
# one RCON command, else function traitors:ui/prompt with storage traitors:ui prompt
# Shows one contestant a choice: $(player) a name, $(title) and $(body) text components, $(actions) the buttons
# (each runs /trigger traitors.<input> set <value>). The bridge builds traitors:ui prompt in commands that each
# stay under the 1446-byte RCON limit; this line has no such limit.
$dialog show $(player) {type:"minecraft:multi_action",title:$(title),body:{type:"minecraft:plain_message",contents:$(body)},can_close_with_escape:true,pause:false,columns:2,actions:$(actions)}
data remove storage traitors:ui prompt
