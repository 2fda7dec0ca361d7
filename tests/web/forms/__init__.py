"""The forms' tests: errors at the field, forms shown on demand, widgets, unrecorded picks."""
