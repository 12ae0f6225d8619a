"""How each implementation in the benchmark table is built: ours and the peers."""
