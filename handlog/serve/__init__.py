"""`handlog serve`: a local web app over the store (see `handlog.serve.app`)."""
