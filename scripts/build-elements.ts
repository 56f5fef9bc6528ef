console.log("elements extras: todo")
