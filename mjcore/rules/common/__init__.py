"""The rules layer every rule set composes: options, the fan table and its policies,
readings, shared pattern predicates, input coercion, claim priority and settlement
bookkeeping. Nothing here imports a rule set."""
