"""The explorer's web page (``cgf explore``): its HTML, script and style sheet, shipped as
package data (a package of its own, so that setuptools lists it rather than guessing)."""
