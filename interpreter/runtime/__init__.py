"""The compiled runtime a battle runs on, and the records of what happens in it."""
