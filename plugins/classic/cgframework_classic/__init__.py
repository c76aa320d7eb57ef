"""The bundled ``classic`` plugin: Nim, subtraction and octal games, Kayles, Dawson's Kayles
and Domineering. It exercises every hook and is the template to copy for a new plugin."""
