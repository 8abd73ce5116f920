"""Packaging finds every package under bot/ and renderers/ itself; data/ ships as candybot_data."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bot", "bot.*", "renderers", "renderers.*"]),
              "candybot_data"],
    package_dir={"candybot_data": "data"},
)
