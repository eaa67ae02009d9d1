"""Play in a browser: ``golfsim serve`` (`golfsim.web.app`; needs ``golfsim[web]``)."""
