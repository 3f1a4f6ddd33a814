"""This package runs ``referee serve``, a web page that checks a log from any phone or laptop
(``referee[serve]``)."""
