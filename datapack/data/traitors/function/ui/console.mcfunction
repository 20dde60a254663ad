# Macro, called by the bridge for a configured host: function traitors:ui/console {player:"<name>"}
$dialog show $(player) traitors:host/console
