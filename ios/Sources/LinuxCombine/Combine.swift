// Linux only (Package.swift builds this as the module `Combine` when the OS has none): the small
// part of Apple's Combine that AgentUI and its tests use, so that the Swift layer compiles and is
// tested on Linux unchanged. Not a Combine implementation: no operators, no back-pressure, no
// schedulers; a subscriber is called synchronously on the thread that sends.
//
// Semantics kept from Combine where the layer depends on them:
// - `@Published` sends every assignment, the new value before the property holds it (willSet),
//   and a new subscriber first receives the current value;
// - a `PassthroughSubject` sends to the subscribers it has when `send` is called;
// - an `AnyCancellable` cancels its subscription when cancelled or released.

import Foundation

/// A type whose changes are announced to observers (here: a marker only; SwiftUI is Apple-only).
public protocol ObservableObject: AnyObject {}

public protocol Cancellable {
    func cancel()
}

/// Cancels its subscription on `cancel()` or when it is released.
public final class AnyCancellable: Cancellable, Hashable {
    private var onCancel: (() -> Void)?
    private let lock = NSLock()

    public init(_ cancel: @escaping () -> Void) {
        onCancel = cancel
    }

    public func cancel() {
        lock.lock()
        let action = onCancel
        onCancel = nil
        lock.unlock()
        action?()
    }

    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    deinit { cancel() }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The subscribers of one publisher, by token; safe to use from any thread.
final class Subscribers<Output>: @unchecked Sendable {
    private let lock = NSLock()
    private var receivers: [Int: (Output) -> Void] = [:]
    private var nextToken = 0

    func add(_ receive: @escaping (Output) -> Void) -> AnyCancellable {
        lock.lock()
        let token = nextToken
        nextToken += 1
        receivers[token] = receive
        lock.unlock()
        return AnyCancellable { [weak self] in self?.remove(token) }
    }

    private func remove(_ token: Int) {
        lock.lock()
        receivers[token] = nil
        lock.unlock()
    }

    /// Calls the subscribers of the moment, in subscription order, outside the lock (a receiver
    /// may cancel or subscribe).
    func send(_ value: Output) {
        lock.lock()
        let current = receivers.sorted { $0.key < $1.key }.map(\.value)
        lock.unlock()
        for receive in current { receive(value) }
    }
}

/// A type-erased publisher: something to `sink` on.
public struct AnyPublisher<Output, Failure: Error> {
    private let subscribe: (@escaping (Output) -> Void) -> AnyCancellable

    init(subscribe: @escaping (@escaping (Output) -> Void) -> AnyCancellable) {
        self.subscribe = subscribe
    }

    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribe(receiveValue)
    }
}

/// Sends each value to the subscribers it has at that moment.
public final class PassthroughSubject<Output, Failure: Error> {
    private let subscribers = Subscribers<Output>()

    public init() {}

    public func send(_ value: Output) {
        subscribers.send(value)
    }

    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribers.add(receiveValue)
    }

    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher { [subscribers] receive in subscribers.add(receive) }
    }
}

/// A property whose assignments are published: `$property.sink { ... }`.
@propertyWrapper
public struct Published<Value> {
    /// The publisher of one `@Published` property (`$property`).
    public final class Publisher {
        fileprivate var value: Value
        private let subscribers = Subscribers<Value>()

        fileprivate init(_ value: Value) { self.value = value }

        fileprivate func set(_ newValue: Value) {
            // Combine's @Published publishes in willSet: subscribers see the new value first.
            subscribers.send(newValue)
            value = newValue
        }

        /// Receives the current value at once, then every later assignment.
        public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
            let subscription = subscribers.add(receiveValue)
            receiveValue(value)
            return subscription
        }

        public func eraseToAnyPublisher() -> AnyPublisher<Value, Never> {
            AnyPublisher { [self] receive in self.sink(receiveValue: receive) }
        }
    }

    private let publisher: Publisher

    public init(wrappedValue: Value) {
        publisher = Publisher(wrappedValue)
    }

    public var wrappedValue: Value {
        get { publisher.value }
        nonmutating set { publisher.set(newValue) }
    }

    public var projectedValue: Publisher { publisher }
}
