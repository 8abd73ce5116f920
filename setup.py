"""Packaging: the metadata is in pyproject.toml; this lists the packages only, because the
content folder ``data/`` ships as the ``candybot_data`` package, a mapping setuptools'
package finder cannot make. A new game's packages and content folder are found by
themselves. The developer tools (``tools``: the offline Discord, the bench, the arena,
balance studies) ship beside the bot so that ``candybot bench`` runs from an install; the
running bot never imports them."""

from setuptools import find_namespace_packages, find_packages, setup

CONTENT = ["candybot_data", *(f"candybot_data.{name}"
                              for name in find_namespace_packages(where="data",
                                                                 exclude=["*__pycache__*"]))]

setup(packages=[*find_packages(include=["bot", "bot.*", "renderers", "renderers.*",
                                        "tools", "tools.*"]),
                *CONTENT],
      package_dir={"candybot_data": "data"},
      package_data={**{name: ["*.json", "*.txt", "*.ttf"] for name in CONTENT},
                    # The web companion's script and style, served as files of its own.
                    "bot.web": ["*.js", "*.css"],
                    # Each game's palette, kept so that a new process need not make it.
                    "renderers": ["palettes.json"]})
