"""Developer tools: measures and helpers that the running bot never imports."""
