"""Balance studies: whole AI games of one game, measured by what its rules changes move."""
