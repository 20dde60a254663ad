# Macro: one command of a batch, $(c) as the bridge wrote it.
$$(c)
