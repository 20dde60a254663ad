# Macro, with storage traitors:ui ask once every choice is a button: the dialog, then the chat line.
$dialog show $(player) {type:"minecraft:multi_action",title:$(title),body:{type:"minecraft:plain_message",contents:$(body)},can_close_with_escape:true,pause:false,columns:2,actions:$(actions)}
$tellraw $(player) {text:"",extra:[{text:"[Castle, to you] ",color:"light_purple",italic:true},{text:"",color:"white",italic:false,extra:[$(body)]},{text:"",extra:$(chat)}]}
