# Macro, called by the bridge: function traitors:item/give {s:{a:"<stack up to the id>",b:"<stack after it>",n:<count>,to:[{p:"<name>",g:"<hand-out id>"},…]}}
# One kind of castle item to several players, each stack carrying that player's hand-out id: given only to a
# player who does not hold it yet (traitors:item/give/one), so sending it twice gives one item.
$data modify storage traitors:item give set value $(s)
function traitors:item/give/each
data remove storage traitors:item give
