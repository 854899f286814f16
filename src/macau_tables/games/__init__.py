"""One module per regulation: paigow, taiwan, craps, baccarat."""
