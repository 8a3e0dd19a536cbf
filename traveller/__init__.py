"""traveller: score duplicate bridge travellers."""
