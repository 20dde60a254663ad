# Macro, called by the bridge: function traitors:run {q:[{c:"<command>"},…]}
# The commands of one step, run in order (bridge/minecraft/batch.py): one RCON round trip instead of one per
# command. A failing command does not stop the ones after it (vanilla goes on with a function's next line).
$data modify storage traitors:run q set value $(q)
function traitors:run/next
