# Reward of advancement traitors:sword/hit (run as the attacker): re-arm it and queue the hit.
advancement revoke @s only traitors:sword/hit
function traitors:input/event {input:"sword_hit",value:1}
