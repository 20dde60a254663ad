# The first player left in storage traitors:item give.to gets the item, then the rest.
execute unless data storage traitors:item give.to[0] run return 0
data modify storage traitors:item give.p set from storage traitors:item give.to[0].p
data modify storage traitors:item give.g set from storage traitors:item give.to[0].g
function traitors:item/give/one with storage traitors:item give
data remove storage traitors:item give.to[0]
function traitors:item/give/each
