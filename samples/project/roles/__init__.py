"""Roles across files: a @jit function is a kernel where some file of the project launches it."""
