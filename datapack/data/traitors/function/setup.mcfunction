# The service's set-up in one call (bridge/render.py setup_call; the service sends bridge.render.setup_commands
# one by one instead when a server's pack has no such function). Safe to run again: an objective or bossbar
# that exists already just fails, and a failing command does not stop a function.
gamerule send_command_feedback false
gamerule log_admin_commands false
function traitors:load
bossbar add traitors:clock {text:"Clock"}
scoreboard players enable @a traitors.vote
scoreboard players enable @a traitors.oath
scoreboard players enable @a traitors.murder
scoreboard players enable @a traitors.seduce
scoreboard players enable @a traitors.ultimatum
scoreboard players enable @a traitors.nominate
scoreboard players enable @a traitors.offer
scoreboard players enable @a traitors.torch
scoreboard players enable @a traitors.power
scoreboard players enable @a traitors.power2
scoreboard players enable @a traitors.pass
scoreboard players enable @a traitors.joker
scoreboard players enable @a traitors.host
scoreboard players enable @a traitors.console
scoreboard players enable @a traitors.candidate
scoreboard players enable @a traitors.holdback
scoreboard players enable @a traitors.keep
scoreboard players enable @a traitors.repeat
scoreboard players enable @a traitors.bearer
scoreboard players enable @a traitors.chest
scoreboard players enable @a traitors.confess
scoreboard players enable @a traitors.respond
scoreboard players enable @a traitors.guess
scoreboard players enable @a traitors.nominee
scoreboard players enable @a traitors.seer
scoreboard players enable @a traitors.trial
scoreboard players enable @a traitors.drink
scoreboard players enable @a traitors.twist
