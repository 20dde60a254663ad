# Once per (re)load (#minecraft:load): the input objectives, the sequence counter and the queue.
# Safe to run again: an existing objective or queue is kept ("already exists" just fails).
scoreboard objectives add traitors.vote trigger {translate:"traitors.trigger.vote",fallback:"Vote"}
scoreboard objectives add traitors.oath trigger {translate:"traitors.trigger.oath",fallback:"Oath"}
scoreboard objectives add traitors.murder trigger {translate:"traitors.trigger.murder",fallback:"Murder"}
scoreboard objectives add traitors.seduce trigger {translate:"traitors.trigger.seduce",fallback:"Seduce"}
scoreboard objectives add traitors.ultimatum trigger {translate:"traitors.trigger.ultimatum",fallback:"Ultimatum"}
scoreboard objectives add traitors.nominate trigger {translate:"traitors.trigger.nominate",fallback:"Nominate"}
scoreboard objectives add traitors.offer trigger {translate:"traitors.trigger.offer",fallback:"Offer"}
scoreboard objectives add traitors.torch trigger {translate:"traitors.trigger.torch",fallback:"Torch"}
scoreboard objectives add traitors.power trigger {translate:"traitors.trigger.power",fallback:"Power"}
scoreboard objectives add traitors.power2 trigger {translate:"traitors.trigger.power2",fallback:"Power"}
scoreboard objectives add traitors.pass trigger {translate:"traitors.trigger.pass",fallback:"Pass"}
scoreboard objectives add traitors.joker trigger {translate:"traitors.trigger.joker",fallback:"Joker"}
scoreboard objectives add traitors.host trigger {translate:"traitors.trigger.host",fallback:"Host"}
scoreboard objectives add traitors.console trigger {translate:"traitors.trigger.console",fallback:"Host console"}
scoreboard objectives add traitors.candidate trigger {translate:"traitors.trigger.candidate",fallback:"Candidate"}
scoreboard objectives add traitors.holdback trigger {translate:"traitors.trigger.holdback",fallback:"Hold back"}
scoreboard objectives add traitors.keep trigger {translate:"traitors.trigger.keep",fallback:"Keep everyone"}
scoreboard objectives add traitors.repeat trigger {translate:"traitors.trigger.repeat",fallback:"Repeat the vote"}
scoreboard objectives add traitors.bearer trigger {translate:"traitors.trigger.bearer",fallback:"Sword bearer"}
scoreboard objectives add traitors.chest trigger {translate:"traitors.trigger.chest",fallback:"Chest"}
scoreboard objectives add traitors.confess trigger {translate:"traitors.trigger.confess",fallback:"Confession"}
scoreboard objectives add traitors.respond trigger {translate:"traitors.trigger.respond",fallback:"Response"}
scoreboard objectives add traitors.guess trigger {translate:"traitors.trigger.guess",fallback:"Guess"}
scoreboard objectives add traitors.nominee trigger {translate:"traitors.trigger.nominee",fallback:"Nominee"}
scoreboard objectives add traitors.seer trigger {translate:"traitors.trigger.seer",fallback:"Seer"}
scoreboard objectives add traitors.trial trigger {translate:"traitors.trigger.trial",fallback:"Trial"}
scoreboard objectives add traitors.drink trigger {translate:"traitors.trigger.drink",fallback:"Drink"}
scoreboard objectives add traitors.twist trigger {translate:"traitors.trigger.twist",fallback:"Twist"}
scoreboard objectives add traitors.seq dummy
execute unless data storage traitors:io queue run data modify storage traitors:io queue set value []
