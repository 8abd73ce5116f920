"""The Discord layer: commands, components, messages. Games are reached only
through the engine contract and :mod:`bot.tables`."""
