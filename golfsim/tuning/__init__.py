"""``golfsim tune``: a search of an agent's parameters on duplicate deals (:mod:`golfsim.tuning.study`)."""
