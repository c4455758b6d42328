// The built-in stores are read through the kit's registry (`StoreValues.current.boost`,
// `withStores`) and report `StoreChange` values, so `import Stores` imports the kit (and with it
// the observation module) too. Clocks and countdown formatting live in `Timers`: import it where
// you use them.
@_exported import SingletonStores
