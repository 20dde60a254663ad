# Macro, called by the bridge: function traitors:ui/clock {name:<text component>,seconds:<whole seconds, >= 1>}
# A phase clock starts (public: everyone sees the same bossbar): the bossbar traitors:clock (added at set-up) shows
# $(name), full at $(seconds). One RCON command instead of five (docs/performance.md); the service then sets its value
# as the clock runs down.
$bossbar set traitors:clock name $(name)
$bossbar set traitors:clock max $(seconds)
$bossbar set traitors:clock value $(seconds)
bossbar set traitors:clock players @a
bossbar set traitors:clock visible true
