"""Play in a browser: ``golfsim serve`` (:mod:`golfsim.web.app`; needs ``golfsim[web]``)."""
