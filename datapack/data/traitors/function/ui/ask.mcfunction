# Macro, called by the bridge: function traitors:ui/ask {player:"<name>",title:<text>,body:<text>,choices:[{l:<label>,c:"vote set 2"},…]}
# Shows one contestant a choice twice from one list of choices: as a dialog, and in chat (for a player who closed
# the dialog) as the question followed by one clickable [label] per choice. Only $(player) sees either.
$data modify storage traitors:ui ask set value {player:"$(player)",title:$(title),body:$(body),choices:$(choices),actions:[],chat:[]}
function traitors:ui/ask/each
function traitors:ui/ask/show with storage traitors:ui ask
data remove storage traitors:ui ask
