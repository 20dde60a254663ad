# Reward of advancement traitors:sword/struck (run as the player who was hit): re-arm it and queue it.
advancement revoke @s only traitors:sword/struck
function traitors:input/event {input:"sword_struck",value:1}
