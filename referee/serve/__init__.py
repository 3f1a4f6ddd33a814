"""``referee serve``: a web page to check a log from any phone or laptop (``referee[serve]``)."""
