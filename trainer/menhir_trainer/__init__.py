"""Trainer for Menhir's network evaluation: docs/network.md is the contract it follows."""
