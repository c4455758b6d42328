// A store's API is made of the observation module's types — its changes arrive on a
// `NotificationChannel` and are observed through an `ObservationToken` — so importing the kit
// imports them too: `import SingletonStores` is all an app's store file needs.
@_exported import StoreObservation
