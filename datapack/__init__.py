"""Castle's Minecraft data pack (and its resource pack under ``resourcepack/``), shipped as package data.

This file only makes the folder importable so the installed package can find the pack
(``bridge.minecraft.datapack.pack_root``); ``traitors install-datapack`` never copies Python files into a world.
"""
