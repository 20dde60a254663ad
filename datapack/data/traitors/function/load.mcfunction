# Once per (re)load (#minecraft:load): the input objectives (traitors:input/objectives, written from the
# bridge's trigger table by `traitors install-datapack`), the sequence counter and the queue.
# Safe to run again: an existing objective or queue is kept ("already exists" just fails).
function traitors:input/objectives
scoreboard objectives add traitors.seq dummy
execute unless data storage traitors:io queue run data modify storage traitors:io queue set value []
