// Row and Column layout for iOS 16+ / macOS 13+: the catalog's `justify`, `align` and child
// `weight` (a share of the free main-axis space, like CSS flex-grow and Compose's weight).
// On iOS 15 Row and Column fall back to stacks (see Layout.swift).
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI

/// The catalog's `justify` values (main axis).
enum Justify: String {
    case start, center, end, spaceBetween, spaceAround, spaceEvenly, stretch

    init(catalogValue: String?) {
        self = catalogValue.flatMap(Justify.init(rawValue:)) ?? .start
    }
}

/// The catalog's `align` values (cross axis).
enum CrossAlign: String {
    case start, center, end, stretch

    init(catalogValue: String?) {
        self = catalogValue.flatMap(CrossAlign.init(rawValue:)) ?? .stretch
    }
}

@available(iOS 16.0, macOS 13.0, *)
struct FlexWeight: LayoutValueKey {
    static let defaultValue: Double? = nil
}

@available(iOS 16.0, macOS 13.0, *)
struct FlexLayout: Layout {
    var axis: Axis
    var justify: Justify
    var align: CrossAlign
    var spacing: CGFloat

    /// Main-axis lengths and cross-axis sizes of the children for one proposal.
    private struct Plan {
        var mains: [CGFloat]
        var crosses: [CGFloat]
        var visible: [Bool]
        var used: CGFloat
        var crossMax: CGFloat
        var flexible: Bool
        var availableMain: CGFloat?
    }

    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
        let plan = makePlan(proposal, subviews)
        let main = containerMain(plan)
        return axis == .horizontal ? CGSize(width: main, height: plan.crossMax) : CGSize(width: plan.crossMax, height: main)
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
        let plan = makePlan(ProposedViewSize(bounds.size), subviews)
        let boundsMain = axis == .horizontal ? bounds.width : bounds.height
        let boundsCross = axis == .horizontal ? bounds.height : bounds.width
        let count = plan.visible.filter { $0 }.count
        let free = plan.flexible ? 0 : max(0, boundsMain - plan.used)
        let (start, extraGap) = distribution(free: free, count: count)
        var offset = start
        let mainStart = axis == .horizontal ? bounds.minX : bounds.minY
        let (crossPosition, crossFraction) = crossPlacement(bounds)
        for index in subviews.indices {
            guard plan.visible[index] else {
                subviews[index].place(at: bounds.origin, proposal: .zero)
                continue
            }
            let crossSize = align == .stretch ? boundsCross : plan.crosses[index]
            let main = mainStart + offset
            let point = axis == .horizontal ? CGPoint(x: main, y: crossPosition) : CGPoint(x: crossPosition, y: main)
            let anchor = axis == .horizontal ? UnitPoint(x: 0, y: crossFraction) : UnitPoint(x: crossFraction, y: 0)
            subviews[index].place(at: point, anchor: anchor, proposal: size(main: plan.mains[index], cross: crossSize))
            offset += plan.mains[index] + spacing + extraGap
        }
    }

    private func makePlan(_ proposal: ProposedViewSize, _ subviews: Subviews) -> Plan {
        let proposedMain = axis == .horizontal ? proposal.width : proposal.height
        let proposedCross = axis == .horizontal ? proposal.height : proposal.width
        let availableMain = proposedMain.flatMap { $0.isFinite ? $0 : nil }
        let crossProposal = proposedCross.flatMap { $0.isFinite ? $0 : nil }

        let visible = subviews.map { $0.sizeThatFits(.unspecified) != .zero }
        let weights: [Double] = subviews.map { subview in
            let weight = subview[FlexWeight.self] ?? (justify == .stretch ? 1 : 0)
            return max(0, weight)
        }
        let count = visible.filter { $0 }.count
        let gaps = spacing * CGFloat(max(0, count - 1))
        let totalWeight = subviews.indices.filter { visible[$0] }.reduce(0.0) { $0 + weights[$1] }
        let flexible = availableMain != nil && totalWeight > 0

        var mains = [CGFloat](repeating: 0, count: subviews.count)
        var crosses = [CGFloat](repeating: 0, count: subviews.count)
        var remaining = availableMain.map { max(0, $0 - gaps) }
        // Children without weight first, in order, each offered what is left (as Compose does).
        for index in subviews.indices where visible[index] && !(flexible && weights[index] > 0) {
            let measured = subviews[index].sizeThatFits(size(main: remaining, cross: crossProposal))
            mains[index] = mainLength(measured)
            crosses[index] = crossLength(measured)
            if let left = remaining { remaining = max(0, left - mains[index]) }
        }
        // Then the weighted ones share the free space by weight.
        if flexible, let free = remaining {
            for index in subviews.indices where visible[index] && weights[index] > 0 {
                let share = free * CGFloat(weights[index] / totalWeight)
                let measured = subviews[index].sizeThatFits(size(main: share, cross: crossProposal))
                mains[index] = share
                crosses[index] = crossLength(measured)
            }
        }
        let used = mains.reduce(0, +) + gaps
        let crossMax = subviews.indices.filter { visible[$0] }.map { crosses[$0] }.max() ?? 0
        return Plan(
            mains: mains, crosses: crosses, visible: visible, used: used,
            crossMax: crossMax, flexible: flexible, availableMain: availableMain
        )
    }

    /// Weighted children, and any justify but start, fill the main axis when it is bounded.
    private func containerMain(_ plan: Plan) -> CGFloat {
        if let available = plan.availableMain, plan.flexible || justify != .start {
            return max(available, plan.used)
        }
        return plan.used
    }

    /// Where the first child starts and what each gap gets on top of `spacing`.
    private func distribution(free: CGFloat, count: Int) -> (CGFloat, CGFloat) {
        guard free > 0, count > 0 else { return (0, 0) }
        let n = CGFloat(count)
        switch justify {
        case .start, .stretch: return (0, 0)
        case .center: return (free / 2, 0)
        case .end: return (free, 0)
        case .spaceBetween: return count > 1 ? (0, free / (n - 1)) : (0, 0)
        case .spaceAround: return (free / (2 * n), free / n)
        case .spaceEvenly: return (free / (n + 1), free / (n + 1))
        }
    }

    /// The cross-axis coordinate children are anchored at, and the anchor's fraction.
    private func crossPlacement(_ bounds: CGRect) -> (CGFloat, CGFloat) {
        let (minCross, midCross, maxCross) = axis == .horizontal
            ? (bounds.minY, bounds.midY, bounds.maxY)
            : (bounds.minX, bounds.midX, bounds.maxX)
        switch align {
        case .start, .stretch: return (minCross, 0)
        case .center: return (midCross, 0.5)
        case .end: return (maxCross, 1)
        }
    }

    private func size(main: CGFloat?, cross: CGFloat?) -> ProposedViewSize {
        axis == .horizontal ? ProposedViewSize(width: main, height: cross) : ProposedViewSize(width: cross, height: main)
    }

    private func mainLength(_ size: CGSize) -> CGFloat {
        axis == .horizontal ? size.width : size.height
    }

    private func crossLength(_ size: CGSize) -> CGFloat {
        axis == .horizontal ? size.height : size.width
    }
}
