"""Where the offline Discord points a process it starts (its ``sitecustomize``)."""
