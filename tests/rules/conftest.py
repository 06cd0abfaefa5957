"""(Here so that pytest puts tests/rules on ``sys.path`` for every test below it: the rule
sets' folders import the shared helpers of ``compiled_twins`` too.)"""
