"""Imported by the render pool's fork server before it forks any worker
(:data:`renderers.pool.PRELOAD`): importing it warms every game's renderer up
(:func:`renderers.pool.warm_up`), so that each worker begins as a warm copy of the fork
server. Nothing else imports it."""

from renderers.pool import warm_up

warm_up()
