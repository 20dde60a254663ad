# Every tick (#minecraft:tick): move each player's pressed triggers into the input queue (docs/datapack.md).
execute as @a run function traitors:input/player
