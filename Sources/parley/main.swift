import Parley
print(Registry.linkedFormatModules)
