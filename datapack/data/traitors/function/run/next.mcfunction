# The first command left in storage traitors:run q, then the rest; the queue ends empty.
execute unless data storage traitors:run q[0] run return 0
function traitors:run/one with storage traitors:run q[0]
data remove storage traitors:run q[0]
function traitors:run/next
