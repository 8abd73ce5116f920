import sys
from pathlib import Path

# Rule-test helpers (board drawings) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
