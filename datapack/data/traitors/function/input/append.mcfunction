# Run as the player: complete storage traitors:io entry with the player's UUID and the next sequence number,
# and append it to the queue. The bridge acks each entry by removing queue[{seq:N}] (docs/minecraft.md#player-input).
data modify storage traitors:io entry.uuid set from entity @s UUID
scoreboard players add #next traitors.seq 1
execute store result storage traitors:io entry.seq int 1 run scoreboard players get #next traitors.seq
data modify storage traitors:io queue append from storage traitors:io entry
data remove storage traitors:io entry
