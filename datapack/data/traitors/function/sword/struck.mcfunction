# Reward of advancement traitors:sword/struck (run as the player who was hit): re-arm it and queue the hit with
# the attacker's UUID (the last entity that hurt this player, `execute on attacker`), so one entry names both.
advancement revoke @s only traitors:sword/struck
data modify storage traitors:io entry set value {input:"sword_struck",value:1}
execute on attacker run data modify storage traitors:io entry.attacker set from entity @s UUID
function traitors:input/append
