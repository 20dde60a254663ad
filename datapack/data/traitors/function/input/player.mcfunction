# Run as each online player every tick. For each trigger: enable it (creates a 0 score for a new player and
# unlocks it after a press), then queue a non-zero score as an input (traitors:input/capture resets it to 0).
# A press therefore reaches the queue exactly once, and the player can press again from the next tick.
scoreboard players enable @s traitors.vote
execute unless score @s traitors.vote matches 0 run function traitors:input/capture {input:"vote"}
scoreboard players enable @s traitors.oath
execute unless score @s traitors.oath matches 0 run function traitors:input/capture {input:"oath"}
scoreboard players enable @s traitors.murder
execute unless score @s traitors.murder matches 0 run function traitors:input/capture {input:"murder"}
scoreboard players enable @s traitors.seduce
execute unless score @s traitors.seduce matches 0 run function traitors:input/capture {input:"seduce"}
scoreboard players enable @s traitors.ultimatum
execute unless score @s traitors.ultimatum matches 0 run function traitors:input/capture {input:"ultimatum"}
scoreboard players enable @s traitors.nominate
execute unless score @s traitors.nominate matches 0 run function traitors:input/capture {input:"nominate"}
scoreboard players enable @s traitors.offer
execute unless score @s traitors.offer matches 0 run function traitors:input/capture {input:"offer"}
scoreboard players enable @s traitors.torch
execute unless score @s traitors.torch matches 0 run function traitors:input/capture {input:"torch"}
scoreboard players enable @s traitors.power
execute unless score @s traitors.power matches 0 run function traitors:input/capture {input:"power"}
scoreboard players enable @s traitors.power2
execute unless score @s traitors.power2 matches 0 run function traitors:input/capture {input:"power2"}
scoreboard players enable @s traitors.pass
execute unless score @s traitors.pass matches 0 run function traitors:input/capture {input:"pass"}
scoreboard players enable @s traitors.joker
execute unless score @s traitors.joker matches 0 run function traitors:input/capture {input:"joker"}
scoreboard players enable @s traitors.host
execute unless score @s traitors.host matches 0 run function traitors:input/capture {input:"host"}
scoreboard players enable @s traitors.console
execute unless score @s traitors.console matches 0 run function traitors:input/capture {input:"console"}
scoreboard players enable @s traitors.candidate
execute unless score @s traitors.candidate matches 0 run function traitors:input/capture {input:"candidate"}
scoreboard players enable @s traitors.holdback
execute unless score @s traitors.holdback matches 0 run function traitors:input/capture {input:"holdback"}
scoreboard players enable @s traitors.keep
execute unless score @s traitors.keep matches 0 run function traitors:input/capture {input:"keep"}
scoreboard players enable @s traitors.repeat
execute unless score @s traitors.repeat matches 0 run function traitors:input/capture {input:"repeat"}
scoreboard players enable @s traitors.bearer
execute unless score @s traitors.bearer matches 0 run function traitors:input/capture {input:"bearer"}
scoreboard players enable @s traitors.chest
execute unless score @s traitors.chest matches 0 run function traitors:input/capture {input:"chest"}
scoreboard players enable @s traitors.confess
execute unless score @s traitors.confess matches 0 run function traitors:input/capture {input:"confess"}
scoreboard players enable @s traitors.respond
execute unless score @s traitors.respond matches 0 run function traitors:input/capture {input:"respond"}
scoreboard players enable @s traitors.guess
execute unless score @s traitors.guess matches 0 run function traitors:input/capture {input:"guess"}
scoreboard players enable @s traitors.nominee
execute unless score @s traitors.nominee matches 0 run function traitors:input/capture {input:"nominee"}
scoreboard players enable @s traitors.seer
execute unless score @s traitors.seer matches 0 run function traitors:input/capture {input:"seer"}
scoreboard players enable @s traitors.trial
execute unless score @s traitors.trial matches 0 run function traitors:input/capture {input:"trial"}
scoreboard players enable @s traitors.drink
execute unless score @s traitors.drink matches 0 run function traitors:input/capture {input:"drink"}
scoreboard players enable @s traitors.twist
execute unless score @s traitors.twist matches 0 run function traitors:input/capture {input:"twist"}
