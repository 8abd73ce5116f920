"""candybot: candy board games in Discord channels."""
