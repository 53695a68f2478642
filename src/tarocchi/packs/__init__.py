"""The three packs as data: Tarocco Piemontese, Tarocchino Bolognese, Minchiate."""
