"""The forms' shared parts: fields, faster widgets, one-button forms, errors at the field."""
