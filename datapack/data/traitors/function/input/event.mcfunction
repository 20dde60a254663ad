# Macro, run as a player: queue an input that is not a trigger (the Sacred Sword advancements).
$data modify storage traitors:io entry set value {input:"$(input)",value:$(value)}
function traitors:input/append
