# Macro, run as the player who pressed traitors.$(input): queue {seq, uuid, input, value}, then reset the score.
# The trigger was already enabled again by traitors:input/player.
$data modify storage traitors:io entry set value {input:"$(input)"}
$execute store result storage traitors:io entry.value int 1 run scoreboard players get @s traitors.$(input)
function traitors:input/append
$scoreboard players set @s traitors.$(input) 0
