# The first choice left in storage traitors:ui ask.choices becomes a button of both forms, then the rest.
execute unless data storage traitors:ui ask.choices[0] run return 0
function traitors:ui/ask/button with storage traitors:ui ask.choices[0]
data remove storage traitors:ui ask.choices[0]
function traitors:ui/ask/each
